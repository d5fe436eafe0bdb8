/** A Word document's content type (DOCX), as servers send it and as local .docx files are read. */
export const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
